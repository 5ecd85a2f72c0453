args: collective all-reduce --size 2GiB --gpus 8 --wire nvlink4 --measured ../data/nccl-tests/synthetic-two-regimes.log --json
exit: 0
