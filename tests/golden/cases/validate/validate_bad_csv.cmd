args: validate ../data/nccl-tests/nvl72-gb200-all_reduce.log
exit: 2
