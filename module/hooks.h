/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "locked" hooks the module implements (slice.c, burst.c), each the
 * function of its own name, declared from the core's list with the type
 * of its struct sliceext_ops member: there is no second copy of a
 * prototype to drift from the core's.
 */
#ifndef _SLICEEXT_HOOKS_H
#define _SLICEEXT_HOOKS_H

#include <linux/sched/sliceext.h>

#define SLICEEXT_OP(name)						\
	extern __typeof__(*(typeof_member(struct sliceext_ops, name))NULL) sliceext_##name
#define SLICEEXT_OP_RET0(name)	SLICEEXT_OP(name)
#include <linux/sched/sliceext-ops.h>

#endif /* _SLICEEXT_HOOKS_H */
