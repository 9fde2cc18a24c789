/* gate.h - the pipes between the parent of an interleaved point and one
 * arm's child: the child waits at its gate for each turn (interleave.h). */
#ifndef SB_GATE_H
#define SB_GATE_H

/* The child's ends: the parent writes one byte to go_fd per turn, the child
 * answers on ack_fd. */
struct il_gate {
	int go_fd, ack_fd;
};

/* The child's first word on its ack pipe; then one il_answer, the
 * repetition's ops/s per turn.  The parent's words:
 * go, stop on the arm's decided A/A check, or stop on its own rule (it has
 * no check, or its partner is gone). */
enum { IL_READY = 'r', IL_GO = 'g', IL_STOP_CHECK = 's', IL_STOP_OWN = 't' };

/* A repetition's answer: it wants more turns (IL_MORE), it has what its
 * own rule asks and may go on (IL_DONE: an arm of an A/A check, whose
 * pair decides), or it takes no further turn (IL_LAST). */
enum il_answer { IL_MORE = 'm', IL_DONE = 'd', IL_LAST = 'l' };

/* il_turn's answer when a stop signal ended the arm's turns. */
enum { IL_TURN_SIGNAL = 3 };

/* Child side; each is a no-op for a NULL g.  il_ready: set up, waiting
 * for turns.  il_turn: blocks until the arm's next turn; 0, or when the
 * parent ends the arm 1 (its A/A check is decided) or 2 (its own rule is
 * met and no check holds it), IL_TURN_SIGNAL when a stop signal came
 * (the arm reports what it measured), -1 when it gives none.
 * il_turn_done: the repetition is over, with its ops/s (0 for a window
 * with no operation: the A/A check keeps it). */
void il_ready(const struct il_gate *g);
int il_turn(const struct il_gate *g);
void il_turn_done(const struct il_gate *g, enum il_answer a, double ops);

#endif
