import { fileURLToPath } from 'node:url';

/** The `buf build` descriptor set of every proto file, for gRPC server reflection. */
export const descriptorSetPath = fileURLToPath(new URL('./gen/descriptors.binpb', import.meta.url));
