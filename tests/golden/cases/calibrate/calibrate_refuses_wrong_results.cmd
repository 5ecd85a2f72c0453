args: calibrate nccl/wrong-results.log --wire nvlink4
exit: 2
