"""expert_offsets: where each expert's tokens start in an expert-sorted token list (a step of MoE token alignment).

counts holds, per group of BLOCK experts, how many tokens each expert received; offsets[e] is the exclusive prefix
sum of the counts within e's group (the first phase of a blocked scan). One block per group.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "counts=i32[?]/1, offsets=i32[?]/1, BLOCK=#256"


@ct.kernel
def expert_offsets(counts, offsets, BLOCK: ct.Constant[int]):
    g = ct.bid(0)
    c = ct.load(counts, index=(g,), shape=(BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    ends = ct.cumsum(c, axis=0)
    ct.store(offsets, index=(g,), tile=ends - c)
