args: offload --model 8b --gpu h100 --gpus 264
exit: 2
