args: calibrate ../data/nccl-tests/nvl72-gb200-all_reduce.log --wire pcie5 -o <scratch>/pcie5.json
exit: 2
