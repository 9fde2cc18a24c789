/* vmmeta.h - the vmmeta verb: scripts/vm.sh's last step, which adds what
 * only the host saw of a guest run to the result the guest sent. */
#ifndef SB_VMMETA_H
#define SB_VMMETA_H

/* slicebench vmmeta --files DIR --out FILE --wall S [...]: 0, 1 when the
 * result cannot be written, 2 for bad usage or a file of DIR that is not
 * what the guest writes (nothing is written then). */
int cmd_vmmeta(int argc, char **argv);

#endif
