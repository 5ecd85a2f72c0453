args: collective all-gather --size 1GiB --gpus 8 --wire nvlink4 --algo nvls --json
exit: 0
