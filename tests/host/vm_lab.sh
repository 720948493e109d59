# QEMU kernel lab: iodig's tag, GUP, DAX, io_uring and emulated NVMe scenarios on Debian 6.1 and 6.12 kernels under TCG (tests/vm/lab.sh); skips with the reason when QEMU, a kernel package or the network is missing.  timeout: 2700
exec bash tests/vm/lab.sh
