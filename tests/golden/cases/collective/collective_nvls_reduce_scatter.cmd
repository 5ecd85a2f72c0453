args: collective reduce-scatter --size 1GiB --gpus 8 --wire nvlink4 --algo nvls
exit: 0
