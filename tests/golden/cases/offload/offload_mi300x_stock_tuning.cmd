args: offload --model 70b --gpu mi300x --gpus 2
exit: 0
