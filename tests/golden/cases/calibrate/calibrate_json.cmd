args: calibrate ../data/nccl-tests/nvl72-gb200-all_reduce.log --wire nvlink5 --algo nvls --json
exit: 0
