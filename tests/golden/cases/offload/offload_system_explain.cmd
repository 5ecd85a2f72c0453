args: offload --model 405b --system dgx-h100 --gpus 4 --explain
exit: 0
