args: calibrate ../data/nccl-tests/synthetic-two-regimes.log --wire nvlink4 -o <scratch>/two.json
exit: 0
