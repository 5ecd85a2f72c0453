args: calibrate ../data/nccl-tests/nvl72-gb200-all_reduce.log --wire ib-ndr
exit: 0
