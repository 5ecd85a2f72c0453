args: collective all-to-all --size 1GiB --gpus 8 --wire nvlink4 --algo nvls
exit: 2
