args: ep --model mixtral --system dgx-h100 --gpus 8 --mode nccl
exit: 0
