// SPDX-License-Identifier: GPL-2.0
/* The one place that instantiates the sliceext trace events. */
#define CREATE_TRACE_POINTS
#include "sliceext_trace.h"
