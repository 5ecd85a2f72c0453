args: ep --model mixtral --system dgx-h100 --gpus 8 --mode nccl --explain
exit: 0
