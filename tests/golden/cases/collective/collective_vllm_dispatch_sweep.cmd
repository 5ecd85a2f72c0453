args: collective all-reduce --size 16KiB:128MiB --gpus 8 --wire nvlink4 --impl vllm
exit: 0
