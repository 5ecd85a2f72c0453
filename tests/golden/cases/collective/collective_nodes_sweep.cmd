args: collective all-reduce --size 1MiB:8GiB --gpus 32 --system dgx-h100
exit: 0
