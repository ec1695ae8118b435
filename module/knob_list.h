/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every knob of sliceext, once. No include guard: the includer defines
 *
 *   SLICEEXT_KNOB(dir, name, def, min, max, on_change, desc)
 *
 * and this list expands it per knob, then undefines it. The module makes
 * of it the variable dir_name, the debugfs file dir/name, the module
 * parameter dir_name and a line of the read-only "knobs" file (knobs.c);
 * tools/sliceext makes of it the table "set" checks a value against.
 *
 *   def, min, max  decimal literals, so that both sides read the same
 *                  numbers (and the module parameter's description can
 *                  quote them)
 *   on_change      module function run after a write while the hooks are
 *                  registered, or NULL: the hot paths read every value
 *                  with READ_ONCE(), so most knobs need nothing more
 *   desc           one line, for modinfo
 */
#ifndef SLICEEXT_KNOB
#error "define SLICEEXT_KNOB before including knob_list.h"
#endif

/* Time slice extension. slice_ext_nsec's range is mainline 7.0's. */
SLICEEXT_KNOB(ext, enabled, 1, 0, 1, NULL,
	      "Grant time slice extensions")
SLICEEXT_KNOB(ext, slice_ext_nsec, 5000, 5000, 50000, NULL,
	      "Extension length in ns")
SLICEEXT_KNOB(ext, rt_guard, 1, 0, 1, NULL,
	      "Never delay a waiting stop, deadline or RT task")

/* Burst-aware scheduling: BORE 6.5.x's set and defaults first. */
SLICEEXT_KNOB(burst, enabled, 1, 0, 1, sliceext_burst_enabled_changed,
	      "Burst-aware scheduling")
SLICEEXT_KNOB(burst, penalty_offset, 24, 0, 63, sliceext_burst_penalty_changed,
	      "log2 of the free burst length in ns")
SLICEEXT_KNOB(burst, penalty_scale, 1536, 0, 4095, sliceext_burst_penalty_changed,
	      "Score per burst doubling, in 1/1024")
SLICEEXT_KNOB(burst, smoothness, 1, 0, 3, NULL,
	      "Penalty rise shift at burst restarts")
SLICEEXT_KNOB(burst, inherit_type, 2, 0, 2, NULL,
	      "Fork inheritance: 0 none, 1 parent, 2 ancestor")
SLICEEXT_KNOB(burst, cache_lifetime_ns, 75000000, 0, 1000000000, NULL,
	      "Fork inheritance cache lifetime in ns")
/*
 * At most three more, each with a user who would turn it off
 * (docs/user-guide.md, "Knobs"): BORE's two placement tweaks, and
 * keeping a waking task's groups on the CPU past their share. The other
 * rules of the burst work are fixed on with burst/enabled.
 */
SLICEEXT_KNOB(burst, wakeup_half_slice, 1, 0, 1, NULL,
	      "Half slice on wakeup placement")
SLICEEXT_KNOB(burst, half_lag_clamp, 1, 0, 1, sliceext_hooks_update,
	      "Halved lag bound")
SLICEEXT_KNOB(burst, group_keep, 1, 0, 1, sliceext_hooks_update,
	      "A wakeup preempting its own group keeps the groups above on the CPU")

#undef SLICEEXT_KNOB
