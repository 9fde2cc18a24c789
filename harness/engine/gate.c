/* gate.c - the child's side of an interleaved arm's turns: it says it is
 * ready, blocks on its go pipe for each turn and answers when the
 * repetition is over (interleave.c is the parent's side). */
#include "gate.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../os/signals.h"

static void say(const struct il_gate *g, char c)
{
	/* Unanswerable: the parent is gone, and PR_SET_PDEATHSIG ends us. */
	if (write(g->ack_fd, &c, 1) != 1)
		_exit(5);
}

void il_ready(const struct il_gate *g)
{
	if (g)
		say(g, IL_READY);
}

int il_turn(const struct il_gate *g)
{
	char c;
	ssize_t r;

	if (!g)
		return 0;
	while ((r = read(g->go_fd, &c, 1)) < 0 && errno == EINTR && !sig_pending())
		;
	/* A stop signal, before the turn or with the pipe closed after it. */
	if (r != 1 && sig_pending())
		return IL_TURN_SIGNAL;
	return r != 1 ? -1 : c == IL_STOP_CHECK ? 1 : c == IL_STOP_OWN ? 2 : 0;
}

void il_turn_done(const struct il_gate *g, enum il_answer a, double ops)
{
	unsigned char m[1 + sizeof(double)];

	if (!g)
		return;
	/* One write below PIPE_BUF: the parent reads it whole. */
	m[0] = (unsigned char)a;
	memcpy(m + 1, &ops, sizeof(ops));
	if (write(g->ack_fd, m, sizeof(m)) != (ssize_t)sizeof(m))
		_exit(5);
}
