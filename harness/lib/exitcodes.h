/* exitcodes.h - the exit status every verb shares for bad usage or bad
 * input (docs/manual.md, "The command line"). */
#ifndef SB_EXITCODES_H
#define SB_EXITCODES_H

#define EXIT_USAGE 2

#endif
