// subgroup_cluster.glsl — the sum and the maximum over each aligned cluster of N lanes of a subgroup (N a power of
// two, at most the subgroup size), in every lane of the cluster. CL = 1: the subgroup's clustered operations;
// CL = 0: the same by a butterfly of xor shuffles, for devices that list shuffles but not clustered operations
// (lavapipe). The including shader enables GL_KHR_shader_subgroup_clustered and GL_KHR_shader_subgroup_shuffle;
// SPIR-V only declares the capability of what is used.
#if CL
#define cluster_add(v, n) subgroupClusteredAdd(v, n)
#define cluster_max(v, n) subgroupClusteredMax(v, n)
#else
float cluster_add(float v, uint n)
{
    [[unroll]] for (uint o = n / 2; o > 0; o /= 2)
        v += subgroupShuffleXor(v, o);
    return v;
}
float cluster_max(float v, uint n)
{
    [[unroll]] for (uint o = n / 2; o > 0; o /= 2)
        v = max(v, subgroupShuffleXor(v, o));
    return v;
}
#endif
