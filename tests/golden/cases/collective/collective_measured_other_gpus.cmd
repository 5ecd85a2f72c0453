args: collective all-reduce --size 8B:2GiB --gpus 8 --wire nvlink4 --measured ../data/nccl-tests/a3mega-h100-16gpu-all_reduce.log
exit: 2
