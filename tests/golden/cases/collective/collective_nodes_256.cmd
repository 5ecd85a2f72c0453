args: collective all-reduce --size 8GiB --gpus 256 --system dgx-h100
exit: 0
