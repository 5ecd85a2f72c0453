args: calibrate ../data/nccl-tests/a3mega-h100-16gpu-all_reduce.log --wire nvlink4
exit: 2
