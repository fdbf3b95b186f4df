# Sourced by the GPU scripts: the GPU families, each a package
# internal/gpu/FAMILY whose test binary is bin/gpu-FAMILY.test
# (scripts/gpu-build.sh).
GPU_FAMILIES="fw bitbfs sssp bulk minplus"
