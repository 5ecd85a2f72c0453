args: collective all-reduce --size 8B:2GiB:x4 --gpus 8 --wire nvlink4 --measured ../data/nccl-tests/synthetic-two-regimes.log --json
exit: 0
