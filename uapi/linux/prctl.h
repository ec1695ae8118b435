/* SPDX-License-Identifier: GPL-2.0+ WITH Linux-syscall-note */
/*
 * linux/prctl.h - the installed <linux/prctl.h> plus the Linux 7.0 time
 * slice extension request, which sliceext serves on Linux 6.12.
 *
 * This does not replace the installed header: it includes it and adds
 * only what that one lacks, so every other PR_* constant stays as the
 * system defines it. glibc's <sys/prctl.h> includes <linux/prctl.h> and
 * so picks this up too when uapi/ comes first on the include path.
 */
#ifndef _SLICEEXT_LINUX_PRCTL_H
#define _SLICEEXT_LINUX_PRCTL_H

/* #include_next is a GCC extension; keep -Wpedantic builds quiet. */
#pragma GCC system_header
#include_next <linux/prctl.h>

/* Get or set the rseq time slice extension of the calling thread. */
#ifndef PR_RSEQ_SLICE_EXTENSION
#define PR_RSEQ_SLICE_EXTENSION			79
#endif
#ifndef PR_RSEQ_SLICE_EXTENSION_GET
#define PR_RSEQ_SLICE_EXTENSION_GET		1
#endif
#ifndef PR_RSEQ_SLICE_EXTENSION_SET
#define PR_RSEQ_SLICE_EXTENSION_SET		2
#endif
/* Bits for PR_RSEQ_SLICE_EXTENSION_GET/SET */
#ifndef PR_RSEQ_SLICE_EXT_ENABLE
#define PR_RSEQ_SLICE_EXT_ENABLE		0x01
#endif

#endif /* _SLICEEXT_LINUX_PRCTL_H */
