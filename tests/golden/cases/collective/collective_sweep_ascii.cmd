args: collective all-reduce --size 1MiB:64MiB --gpus 8 --wire nvlink4 --ascii
exit: 0
