args: collective all-to-all --size 1GiB --gpus 16 --system dgx-a100 --explain
exit: 0
