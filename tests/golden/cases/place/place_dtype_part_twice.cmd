args: place --model mixtral --system dgx-h100 --gpus 8 --dtype experts=fp8,experts=fp4
exit: 2
