/* hist.c - histogram queries and their JSON form. */
#include "hist.h"

#include <math.h>
#include <string.h>

#include "resset.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

uint64_t hist_bucket_lo(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	unsigned e = idx / HIST_SUB + HIST_SUB_BITS - 1;

	return (uint64_t)(HIST_SUB + idx % HIST_SUB) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_width(unsigned idx)
{
	if (idx < HIST_SUB)
		return 1;
	return 1ull << (idx / HIST_SUB - 1);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	if (!h->count)
		return 0;
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	uint64_t seen = 0;

	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		uint64_t v = hist_bucket_lo(i) + hist_bucket_width(i) / 2;

		if (v < h->min)
			v = h->min;
		if (v > h->max)
			v = h->max;
		return v;
	}
	return h->max;
}

/* The percentile shape of fields.h (SB_FLD_PCT): every instance has the
 * same keys, named here by a repetition's hold_ns. */
json_t *hist_summary_json(const struct hist *h)
{
	static const struct {
		const char *name;
		double q;
	} qs[] = { { fld_hold_p50, 0.50 },	  { fld_hold_p90, 0.90 },
		   { fld_hold_p99, 0.99 },	  { fld_hold_p99_9, 0.999 },
		   { fld_hold_p99_99, 0.9999 } };
	json_t *o = json_object();

	res_set(o, fld_hold_count, json_integer((json_int_t)h->count));
	res_set(o, fld_hold_min, json_integer((json_int_t)h->min));
	res_set(o, fld_hold_mean, json_real(h->count ? (double)h->sum / (double)h->count : 0));
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		res_set(o, qs[i].name, json_integer((json_int_t)hist_quantile(h, qs[i].q)));
	res_set(o, fld_hold_max, json_integer((json_int_t)h->max));
	return o;
}

json_t *hist_buckets_json(const struct hist *h)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		json_array_append_new(a, json_pack("[I,I,I]", (json_int_t)hist_bucket_lo(i),
						   (json_int_t)hist_bucket_width(i),
						   (json_int_t)h->bucket[i]));
	}
	return a;
}
