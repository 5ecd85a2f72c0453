env: COLUMNS=90
args: collective all-reduce --size 1KiB:1GiB --gpus 8 --wire nvlink4
exit: 0
