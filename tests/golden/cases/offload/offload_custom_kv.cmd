args: offload --hidden 8192 --layers 80 --params 70e9 --gpu h100 --batch 1 --context 8
exit: 2
