args: place --model 405b --gpu h100 --gpus 16 --scale-up nvlink4 --scale-out ndr
exit: 0
