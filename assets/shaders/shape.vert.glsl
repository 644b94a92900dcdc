// Instanced shaded primitives (render/shape_instances.h lays out the per-instance attributes).
// Unit mesh -> part: p * scale + (0, 0, cap * halfLength), exactly render/primitive_mesh.h placeVertex.
// uMode 2 flattens the part onto the ground along the light for the planar drop shadow.
#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in float aCap;
layout(location = 3) in vec4 iModel0;
layout(location = 4) in vec4 iModel1;
layout(location = 5) in vec4 iModel2;
layout(location = 6) in vec4 iModel3;
layout(location = 7) in vec4 iScaleHalfLength;
layout(location = 8) in vec4 iColor;

uniform mat4 uViewProj;
uniform int uMode;            // 0 lit, 1 ghost, 2 shadow
uniform vec3 uLightDir;       // towards the light, unit
uniform float uGroundHeight;
uniform float uMinRadiusPixels;     // > 0 for rods (cylinders, capsules): thin rods stay visible
uniform float uRadiansPerPixel;     // vertical field of view / viewport height
uniform int uRoundEnds;             // 1 for capsules: the radius is also scale.z
uniform int uBillboard;             // 1 for ribbons: the strip turns about its axis to face the eye
uniform vec3 uEye;

out vec3 vWorld;
out vec3 vNormal;
out vec4 vColor;  // linear rgb, straight alpha

void main() {
  vec3 scale = iScaleHalfLength.xyz;
  if (uMinRadiusPixels > 0.0) {
    // Far-away rods thinner than a pixel would break up into dots: widen them to a minimum
    // on-screen radius, like a line of minimum width (the 1000-link ladder stays readable).
    float depth = max((uViewProj * iModel3).w, 1e-6);
    float minRadius = uMinRadiusPixels * uRadiansPerPixel * depth;
    scale.xy = max(scale.xy, vec2(minRadius));
    if (uRoundEnds == 1) scale.z = max(scale.z, minRadius);
  }
  vec4 world;
  if (uBillboard == 1) {
    // render/shape_instances.cpp ribbonVertex (keep in sync); lit as the rod's side facing the eye.
    vec3 axis = normalize(iModel2.xyz);
    vec3 end = iModel3.xyz + axis * (aCap * iScaleHalfLength.w);
    vec3 toEye = uEye - end;
    vec3 side = cross(toEye, axis);
    float len = length(side);
    side = len > 1e-6 * length(toEye) ? side / len : normalize(iModel0.xyz);
    world = vec4(end + side * (aPosition.x * scale.x), 1.0);
    vNormal = cross(axis, side);
  } else {
    vec3 local = aPosition * scale + vec3(0.0, 0.0, aCap * iScaleHalfLength.w);
    vec3 localNormal = normalize(aNormal / scale);
    mat4 model = mat4(iModel0, iModel1, iModel2, iModel3);
    world = model * vec4(local, 1.0);
    // Inverse-transpose direction via the cofactor matrix (render/shape_instances.h worldNormal).
    vec3 c0 = iModel0.xyz, c1 = iModel1.xyz, c2 = iModel2.xyz;
    vec3 n = mat3(cross(c1, c2), cross(c2, c0), cross(c0, c1)) * localNormal;
    vNormal = dot(c0, cross(c1, c2)) < 0.0 ? -n : n;
  }
  // sRGB -> linear with gamma 2 (squared), once per vertex; shape.frag.glsl encodes with sqrt.
  vColor = vec4(iColor.rgb * iColor.rgb, iColor.a);
  if (uMode == 2) {
    // Slide the point down the light ray onto the ground; points below ground stay where they are
    // and are hidden by the ground's depth.
    float height = world.z - uGroundHeight;
    if (height > 0.0) world.xyz -= (height / max(uLightDir.z, 0.05)) * uLightDir;
  }
  vWorld = world.xyz;
  gl_Position = uViewProj * world;
}
