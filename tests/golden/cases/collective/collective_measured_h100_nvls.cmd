args: collective all-reduce --size 8B:8GiB --gpus 8 --wire nvlink4 --measured ../data/nccl-tests/h100-8gpu-nvls-all_reduce.log
exit: 0
