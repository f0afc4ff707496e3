# Cross-building for 64-bit ARM Linux on a Debian x86-64 machine: Debian's
# g++-aarch64-linux-gnu, the libraries' arm64 packages beside the host's
# (multiarch, /usr/lib/aarch64-linux-gnu), and the binaries run under
# qemu-user-static (scripts/install-arm64-deps installs all three). The CPU
# model "max" has every extension qemu emulates, DotProd and I8MM among
# them; scripts/test-arm64 also runs the kernel tests on older models so
# that each NEON variant runs.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static;-cpu;max)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
