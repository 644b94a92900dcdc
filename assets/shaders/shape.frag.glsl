// Lighting for shapes and triangle meshes: sun (directional) + hemispheric sky/ground ambient +
// Blinn-Phong specular, computed in linear light and written gamma-encoded (gamma 2: sqrt, cheap
// on software GL). Ghosts add a Fresnel-like
// rim so translucent bodies keep a readable outline; shadows are flat and fade with the grid.
#version 330 core
in vec3 vWorld;
in vec3 vNormal;
in vec4 vColor;  // linear rgb (shape.vert.glsl), straight alpha

uniform vec3 uEye;
uniform vec3 uLightDir;       // towards the light, unit
uniform vec3 uLightColor;     // linear
uniform vec3 uSkyAmbient;     // linear, light from above
uniform vec3 uGroundAmbient;  // linear, light bounced from below
uniform int uMode;            // 0 lit, 1 ghost, 2 shadow
uniform bool uTwoSided;       // open meshes: light the back side with the flipped normal
uniform float uShadowAlpha;
uniform float uFadeEnd;       // ground fade distance, m (shadows fade with the grid)

out vec4 fragColor;

void main() {
  if (uMode == 2) {
    float fade = 1.0 - smoothstep(0.35 * uFadeEnd, uFadeEnd, length(vWorld - uEye));
    fragColor = vec4(0.0, 0.0, 0.0, uShadowAlpha * fade);
    return;
  }
  vec3 N = normalize(vNormal);
  if (uTwoSided && !gl_FrontFacing) N = -N;
  vec3 V = normalize(uEye - vWorld);
  vec3 albedo = vColor.rgb;
  float diffuse = max(dot(N, uLightDir), 0.0);
  // Wrap the hemisphere term so faces pointing sideways still get most of the sky.
  vec3 ambient = mix(uGroundAmbient, uSkyAmbient, 0.5 + 0.5 * N.z);
  vec3 H = normalize(uLightDir + V);
  float specular = diffuse > 0.0 ? pow(max(dot(N, H), 0.0), 60.0) : 0.0;
  vec3 linear = albedo * (ambient + uLightColor * diffuse) + 0.25 * uLightColor * specular;
  vec3 srgb = sqrt(clamp(linear, 0.0, 1.0));
  float alpha = vColor.a;
  if (uMode == 1) {
    float rim = pow(1.0 - abs(dot(N, V)), 3.0);
    alpha = clamp(alpha + (1.0 - alpha) * 0.6 * rim, 0.0, 1.0);
    srgb = mix(srgb, vec3(1.0), 0.25 * rim);
  }
  fragColor = vec4(srgb, alpha);
}
