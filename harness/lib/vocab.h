/* vocab.h - the names the run and the report sides share, each spelled
 * once: the waiting policies and the locks, with how each looks in a
 * figure.  Everything else is made from these lists: the policy enum and
 * its names and help (harness/core/policy.h, workloads/registry.c), the
 * loop tables of every lock (harness/core/loop.h), the `policy` key's help
 * (harness/core/keys.c), the plot styles (harness/report/plotstyle.c), the
 * placements of the preload library (harness/preload/slicepreload.c) and
 * the program arms (workloads/program.c).  It depends on nothing, so every
 * layer, the preload library's too, may include it.
 *
 * A figure tells a series by colour (the lock), point shape and dash (the
 * policy); a dry control keeps its policy's colour and shape but hollow
 * (gnuplot numbers the hollow shape one below the filled one) on a dotted
 * line.  Shapes and dashes are unique per policy and no filled shape is
 * another's hollow, so two series differ in colour, shape or dash by
 * construction (tests/unit/plotstyle.c checks it). */
#ifndef SB_VOCAB_H
#define SB_VOCAB_H

/* Each policy's name, for what names one policy in a constant (the preload
 * library's placements, the program arms); the list below uses them. */
#define SB_POLNAME_NONE "none"
#define SB_POLNAME_CS "cs"
#define SB_POLNAME_PRE "pre"
#define SB_POLNAME_REARM "rearm"
#define SB_POLNAME_NOYIELD "noyield"
#define SB_POLNAME_HOG "hog"

/* X(ID, name, yields, trylock, pt, dash, help): the policy POL_ID is
 * spelled name (SB_POLNAME_ID); yields: it gives a grant back at once
 * (rseq_slice_yield); trylock: only a lock with trylock can run it; pt: its
 * filled gnuplot point type (odd, 5..15); dash: its dash pattern, NULL for
 * solid.  The order is the enum's, the order `slicebench list` shows them
 * in. */
#define SB_POLICIES(X, A)                                                                         \
	X(A, NONE, SB_POLNAME_NONE, 0, 0, 7, NULL, "no slice-extension request (the baseline)")   \
	X(A, CS, SB_POLNAME_CS, 1, 0, 5, "-- ",                                                   \
	  "request after the acquisition, clear after the release, yield if granted")             \
	X(A, PRE, SB_POLNAME_PRE, 1, 0, 9, "-. ",                                                 \
	  "request before the acquisition (waiters spin with it), clear after the "               \
	  "release, yield if granted")                                                            \
	X(A, REARM, SB_POLNAME_REARM, 1, 1, 13, "-.. ",                                           \
	  "request per trylock attempt, clear and yield if granted between attempts "             \
	  "(locks with trylock only)")                                                            \
	X(A, NOYIELD, SB_POLNAME_NOYIELD, 0, 0, 11, "--- . ",                                     \
	  "abuser: cs's request and clear, never yields a grant")                                 \
	X(A, HOG, SB_POLNAME_HOG, 0, 0, 15, "- - . . ",                                           \
	  "abuser: request at every operation, never cleared, never yields")

/* A dry control's dash, whatever its policy. */
#define SB_DRY_DASH ". "

/* X(A, ident, rgb, sleeps): the lock struct wl_lock_<ident> (one file in
 * workloads/locks/), its colour (0xRRGGBB) and whether it can put a waiter to sleep
 * (figures with too many series split spinning from sleeping locks).  In
 * the order `slicebench list` shows them.  Colours: the Okabe-Ito palette
 * (Okabe and Ito, "Color Universal Design", 2008), distinguishable with
 * the common colour-vision deficiencies, then darker and muted ones;
 * yellow is left out, it vanishes on white. */
#define SB_LOCKS(X, A)                                                                    \
	X(A, tas, 0x0072B2, 0)                                                             \
	X(A, pg_spin, 0x7F3C8D, 1)                                                         \
	X(A, ticket, 0xD55E00, 0)                                                          \
	X(A, mcs, 0xCC79A7, 0)                                                             \
	X(A, flexguard, 0xE73F74, 1)                                                       \
	X(A, futex, 0x009E73, 1)                                                           \
	X(A, adaptive, 0xE69F00, 1)                                                        \
	X(A, pthread, 0x56B4E9, 1)                                                         \
	X(A, pthread_adaptive, 0x000000, 1)                                                \
	X(A, futex_pi, 0x8C510A, 1)                                                        \
	X(A, none, 0x999999, 0)                                                            \
	X(A, sleep, 0x555555, 1)

/* X(A, look, rgb): the colours of workloads without a lock of their own:
 * an external program as it is, the same under the preload library (its
 * arms), the primitives' own measurement. */
#define SB_UNLOCKED(X, A)                                                                 \
	X(A, "program", 0x3969AC)                                                          \
	X(A, "preload", 0x11A579)                                                          \
	X(A, "primitives", 0x4D4D4D)

/* Ready-made expanders. */
#define SB_COUNT_ONE(...) +1
#define SB_POL_NAME(A, ID, name, ...) name,
#define SB_POL_HELP(A, ID, name, y, t, pt, dash, help) help,
#define SB_POL_ALT(A, ID, name, ...) name " | "

#endif
