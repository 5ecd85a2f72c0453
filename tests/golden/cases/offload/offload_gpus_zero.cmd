args: offload --model 70b --gpu h100 --gpus 0
exit: 2
