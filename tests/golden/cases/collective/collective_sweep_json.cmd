args: collective all-gather --size 1KB:4KB --gpus 4 --wire nvlink5 --json
exit: 0
