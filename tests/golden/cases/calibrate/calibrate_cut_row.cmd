args: calibrate ../data/nccl-tests/mscclpp-nvls-cut-mid-row.log --wire nvlink4 --json
exit: 2
