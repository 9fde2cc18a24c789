/* claim.h - the verdict on a published claim: one function, which the
 * replication kit (scripts/replicate.sh, through `slicebench verdict`),
 * the study reports (plot --question) and FINDINGS (which quotes the kit's
 * verdicts) all take their verdict from.
 *
 * A claim about the extension is judged on the row of the extension's arm
 * against its own dry control (the same loop, its request written where
 * the kernel never reads it), never against another lock: the published
 * ratio is what the grants bought.  In order:
 *   cannot tell     no published figure;
 *   not comparable  a different experiment (the difference stated);
 *   cannot tell     a value target (no interval); not measured here (why);
 *   cannot tell     the control failed its A/A check (reason "control");
 *                   the extension did not fire often enough to move the
 *                   ratio (compare's mechanism.too_rare: "mechanism"),
 *                   unless the claim is about the request's cost
 *                   (about: "cost");
 *   reproduced      the same direction as published, the published ratio
 *                   inside the interval widened by the band; or published
 *                   no change and shown equivalent;
 *   contradicted    the opposite direction, or another size, or not seen
 *                   where the design's MDE says the published effect was
 *                   within reach;
 *   cannot tell     else: the design could not detect the published effect
 *                   (reason "power", the MDE beside the published ratio). */
#ifndef SB_CLAIM_H
#define SB_CLAIM_H

#include <jansson.h>

/* in: {published: ratio | null, row: a compare row (B the arm, A its dry
 * control) | null, missing: why there is no row | null, not_comparable:
 * the difference | null, band: the noise band (fraction, default 0.05),
 * about: "grants" (default) | "cost", value: true for a target with one
 * pooled value and no interval}.
 * Returns {verdict, reason: "no figure" | "not measured" | "control" |
 * "mechanism" | "power" | "no interval" | null, why}. */
json_t *claim_judge(const json_t *in);

int cmd_verdict(int argc, char **argv);

#endif
