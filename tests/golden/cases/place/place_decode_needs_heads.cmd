args: place --hidden 8192 --layers 80 --params 70e9 --phase decode --context 100000000 --batch 256 --gpu h100 --gpus 8
exit: 2
