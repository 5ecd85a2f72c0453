args: plan --model deepseek-v3 --ttft 3s --tpot 80ms --rate 2 --system aws-p5,aws-p5en,gb200-nvl72 --price gb200-nvl72=756
exit: 0
