args: calibrate ../data/nccl-tests/a100-sendrecv-trimmed.log --wire nvlink3
exit: 2
