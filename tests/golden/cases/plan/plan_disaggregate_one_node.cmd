args: plan --model 70b --dtype fp8 --input 8192 --output 512 --ttft 2s --tpot 15ms --rate 2 --disaggregate --system dgx-h200,h200-nvl-8,dgx-h100
exit: 0
