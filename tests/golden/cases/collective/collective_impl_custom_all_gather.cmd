args: collective all-gather --size 1MiB --gpus 8 --wire nvlink4 --impl custom
exit: 2
