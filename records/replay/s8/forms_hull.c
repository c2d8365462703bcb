/* forms_hull.c — session 8, issue 22 item 6: how much of a table's missing set the "forms" capture when every
 * valid configuration is known: the configurations inside the bounds that all valid ones keep to, on signed sums
 * of the coordinates (log2 of the values where all positive, else the index) of 1..K parameters. Usage:
 * forms_hull TABLE K. Experiment scaffolding kept as a record, not part of the build. */
#include "replay.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc,char**argv){
  vkat_replay_table*t; vkat_error e={0};
  if(vkat_replay_load(argv[1],NULL,&t,&e)){printf("load fail %s\n",e.message);return 1;}
  int maxk=atoi(argv[2]);
  size_t np=t->param_count; size_t var[64],nv=0;
  for(size_t p=0;p<np;p++) if(t->value_counts[p]>1) var[nv++]=p;
  double *co[64];
  for(size_t i=0;i<nv;i++){size_t p=var[i]; co[i]=malloc(t->value_counts[p]*8); int pos=!t->categorical[p];
    for(size_t j=0;j<t->value_counts[p];j++){double x=atof(t->values[p][j]); if(x<=0) pos=0;}
    for(size_t j=0;j<t->value_counts[p];j++) co[i][j]=pos?log2(atof(t->values[p][j])):(double)j;}
  uint64_t R=t->raw_count; vkat_search_space sp={np,t->value_counts,R};
  double *X=malloc(R*nv*8); unsigned char*ok=malloc(R); uint32_t c[64];
  for(uint64_t r=0;r<R;r++){vkat_search_decode(&sp,r,c); double s; ok[r]=vkat_replay_lookup(t,c,&s)&&isfinite(s);
    for(size_t i=0;i<nv;i++) X[r*nv+i]=co[i][c[var[i]]];}
  unsigned char*pred=malloc(R); for(uint64_t r=0;r<R;r++)pred[r]=1;
  int forms=0; size_t S[3]; int sg[3];
  for(int k=1;k<=maxk;k++){
    for(S[0]=0;S[0]<nv;S[0]++) for(S[1]=(k>1?S[0]+1:0);S[1]<(k>1?nv:1);S[1]++) for(S[2]=(k>2?S[1]+1:0);S[2]<(k>2?nv:1);S[2]++)
    for(int m=0;m<(1<<k);m++){ for(int q=0;q<k;q++) sg[q]=(m>>q)&1?-1:1;
      double b=-1e300; for(uint64_t r=0;r<R;r++) if(ok[r]){double g=0; for(int q=0;q<k;q++) g+=sg[q]*X[r*nv+S[q]]; if(g>b)b=g;}
      for(uint64_t r=0;r<R;r++){double g=0; for(int q=0;q<k;q++) g+=sg[q]*X[r*nv+S[q]]; if(g>b+1e-9)pred[r]=0;}
      forms++;}
  }
  uint64_t pv=0,fv=0,mi=0,nvld=0; for(uint64_t r=0;r<R;r++){pv+=pred[r]; fv+=pred[r]&&!ok[r]; nvld+=ok[r];}
  printf("%s raw %llu valid %llu forms %d hull-valid %llu false-valid %llu\n",t->label,(unsigned long long)R,(unsigned long long)nvld,forms,(unsigned long long)pv,(unsigned long long)fv);
  (void)mi; return 0;}
