args: collective point-to-point --size 1GiB --gpus 2 --wire nvlink4
exit: 0
