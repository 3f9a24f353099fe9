/**
 * The packed BVH's layout (engine/data/bvh.ts builds it, bvhRaycast.ts reads it): a 16-byte
 * header — magic "DBVH", version, node count, triangle count — then 32 bytes per node, depth
 * first: float32 minX minY minZ maxX maxY maxZ, uint32 a, uint32 count (count > 0: a leaf over
 * triangles [a, a + count); count = 0: an inner node whose right child is node a).
 */

/** "DBVH" as a little-endian uint32. */
export const BVH_MAGIC = 0x48564244
export const BVH_VERSION = 1
export const HEADER_BYTES = 16
export const NODE_BYTES = 32
export const NODE_WORDS = NODE_BYTES / 4
